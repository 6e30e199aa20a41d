"""What every app shares and owns nothing of its own: the error family services raise, the
websocket plumbing (language, guards, the database pool) and publishing after commit."""
