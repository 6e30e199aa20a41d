"""ASGI entry point: HTTP goes to Django, websockets through origin, session and auth checks."""

import gc

from django.core.asgi import get_asgi_application

from config.mode import use_default_settings

use_default_settings()
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core import transport  # noqa: E402

# Under Daphne: a bound on what a socket may have waiting for its client, and pings for clients
# that send but do not read (core/transport.py).
transport.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Channels' stubs want its own pattern type; Django's ``path`` made these.
        "websocket": AllowedHostsOriginValidator(
            URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]
        ),
    }
)

# A server process lives long and keeps what start-up loaded (Django, the apps, the URL
# configuration) to the end: move it out of the cyclic collector's reach. Walking those objects in
# every full collection stalled all of a process's sockets for ~200 ms under load (make bench:
# p99 move → last seat at 250 tables went from 139 ms to 19 ms).
gc.freeze()
# What the sockets hold (~35 KB of small objects each) is still walked by every full collection:
# with 1,000 sockets a process that was 130-230 ms with every socket stalled, every ~5 s under
# load (make bench, gc.callbacks). A full collection is considered after every 100 collections
# of the middle generation instead of every 10, so it comes ten times less often.
gc.set_threshold(700, 10, 100)
