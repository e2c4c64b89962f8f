"""A real server on 127.0.0.1 and a real Chromium (Debian's; never a downloaded one)."""

import shutil
import threading

import pytest
from werkzeug.serving import make_server

from larp_app.extensions import db
from larp_app.services.demo import load_demo

from .camera import ARGS, CAMERA, CHROMIUM, write_y4m


class Server:
    """The app on 127.0.0.1, stopped and started again on the same port (the Wi-Fi lost)."""

    def __init__(self, app):
        self.app, self.port, self.server = app, 0, None
        self.start()
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def live_server(app):
    """Serve the test app on a free port of 127.0.0.1 for the length of a test."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def browser():
    if not shutil.which("chromium") and not shutil.os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone_locale():
    """The language the phone's browser asks for; a module overrides it for another."""
    return "it-IT"


@pytest.fixture
def phone(browser, phone_locale):
    """A 360 px wide phone screen."""
    context = browser.new_context(
        viewport={"width": 360, "height": 780}, locale=phone_locale, has_touch=True, is_mobile=True
    )
    yield context.new_page()
    context.close()


@pytest.fixture
def server(app):
    """The app served on a port it keeps when stopped and started again (no network)."""
    running = Server(app)
    yield running
    running.stop()


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


@pytest.fixture
def launch(tmp_path):
    """Start Chromium with a fake camera showing an image, or with no camera at all.

    The video file is a flag of the browser process: one browser per picture.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browsers = []

        def start(picture, **context):
            args = list(ARGS)
            if picture is not None:
                video = write_y4m(picture, tmp_path / f"camera-{len(browsers)}.y4m")
                args += [*CAMERA, f"--use-file-for-fake-video-capture={video}"]
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
            browsers.append(browser)
            return browser.new_context(**context).new_page()

        yield start
        for browser in browsers:
            browser.close()
