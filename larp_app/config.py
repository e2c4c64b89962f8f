"""Defaults; instance/config.py overrides them, and LARP_* environment variables override both."""

import os
from datetime import timedelta

# None: a random key is written to instance/secret_key on first run.
SECRET_KEY = None

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# A referee stays logged in on a phone for a whole event weekend.
PERMANENT_SESSION_LIFETIME = timedelta(days=4)

LANGUAGES = ("it", "es", "en")
BABEL_DEFAULT_LOCALE = "en"

# None: SQLite in instance/ (set by create_app). DATABASE_URL points at PostgreSQL.
SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL") or None
# create_app adds pool_pre_ping for a database server (a connection may drop with a restart of
# it), not for SQLite's file, whose connections never drop: no ping before every request.
SQLALCHEMY_ENGINE_OPTIONS: dict = {}

# The address printed in badge QR codes, e.g. http://192.168.1.10:5000 (often a LAN address
# at an event). None: the address the organiser's browser used.
PUBLIC_BASE_URL = None

# The local authority and HTTPS certificate of `flask tls init`; None: instance/tls.
TLS_FOLDER = None

# The plain-HTTP page that helps phones trust the laptop's HTTPS (`make run` sets it).
TRUST_URL = None

# Reverse proxies in front of the app (Caddy: 1): their X-Forwarded-For/-Proto/-Host are
# believed for exactly that many hops. 0: served directly, such headers are ignored.
TRUSTED_PROXIES = 0

# The push server (`flask push`) that tells phones of their character's changes, e.g.
# https://192.168.1.10:5001 (`make run` starts one and sets it). None: pages poll alone.
PUSH_URL = None

# Where background badge prints are written; None: instance/prints.
PRINT_FOLDER = None

# The largest request body: a bigger one is refused (413) before it is read. A CSV of a
# thousand sheets is well under 2 MB; a phone's outbox of 200 entries under 1 MB.
MAX_CONTENT_LENGTH = 4 * 1024 * 1024
# Form fields of a urlencoded or multipart form (werkzeug's own default is 500 000 bytes).
MAX_FORM_MEMORY_SIZE = 4 * 1024 * 1024

# The live API refuses entries dated further ahead or further back than these.
ENTRY_MAX_FUTURE_SECONDS = 10
ENTRY_MAX_AGE_HOURS = 24

# The organiser's time zone for exports (an IANA name, e.g. "Europe/Rome") when their browser
# does not say it; None: this machine's own.
TIME_ZONE = None

# None: `flask demo` gives its accounts random passwords, printed once. Tests fix them.
DEMO_PASSWORDS = None

# Fair share (services/fair_share.py): costly reads (a whole roster, one folded at another
# instant, exports, the report) run one at a time per account, from an allowance of
# FAIR_SHARE_BURST seconds of them back to back (a person's clicks) that fills at
# FAIR_SHARE_PART seconds a second (a loop's sustained share: a quarter of one worker), and at
# most FAIR_SHARE_SLOTS at once in all, so that workers stay free for everyone's cheap
# requests. FAIR_SHARE_FOLDER: where the accounts' lock files are (None:
# instance/fair-share/). FAIR_SHARE = False turns it off.
FAIR_SHARE = True
FAIR_SHARE_BURST = 2
FAIR_SHARE_PART = 0.25
FAIR_SHARE_SLOTS = 2
FAIR_SHARE_FOLDER = None
