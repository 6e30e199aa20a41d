"""The one error family services raise; the edge (views, consumers, admin) shows its message."""


class ServiceError(Exception):
    """A request the site refuses. ``str(error)`` is a sentence a person can read."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
