"""The laptop's HTTPS in a real Chromium: with the authority of `flask tls init` in its trust
store, the scan page opens the fake camera and the service worker installs; without it, the
HTTPS page does not open and the trust page says this phone does not trust the server yet.

The laptop is called larp.test (Chromium's resolver maps it to 127.0.0.1), so that the page
is secure only through its certificate, never as a localhost page.
"""

import os
import shutil
import subprocess
import threading

import pytest
from playwright.sync_api import Error, expect

from larp_app import tls
from larp_app.trust import create_trust_app

from .camera import ARGS, CAMERA, CHROMIUM, WASM, badge_front, write_y4m

pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
    pytest.mark.skipif(not WASM.exists(), reason="static/vendor has no QR decoder: make install"),
    pytest.mark.skipif(
        not shutil.which("certutil"), reason="certutil (Debian libnss3-tools) is not installed"
    ),
]

HOST = "larp.test"


def serve(app, ssl_context=None):
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=ssl_context)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def laptop(app, demo, tmp_path):
    """The app over HTTPS with a certificate of the local authority, and the trust page."""
    files = tls.TlsFiles(tmp_path / "tls")
    tls.ensure_authority(files, HOST)
    tls.issue_server_certificate(files, [HOST], ["127.0.0.1"])
    https = serve(app, ssl_context=(str(files.cert), str(files.key)))
    base = f"https://{HOST}:{https.server_port}"
    trust_app = create_trust_app({"TLS_FOLDER": str(files.folder), "PUBLIC_BASE_URL": base})
    trust = serve(trust_app)
    yield {"files": files, "base": base, "trust": f"http://{HOST}:{trust.server_port}/"}
    for server in (https, trust):
        server.shutdown()


@pytest.fixture
def chromium(tmp_path):
    """Start Chromium with its own NSS trust store (in its HOME), with or without the authority."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browsers = []

        def start(authority=None, picture=None):
            home = tmp_path / f"home-{len(browsers)}"
            nssdb = home / ".pki" / "nssdb"
            nssdb.mkdir(parents=True)
            certutil = ["certutil", "-d", f"sql:{nssdb}"]
            subprocess.run([*certutil, "-N", "--empty-password"], check=True)
            if authority is not None:
                add = ["-A", "-n", "larp_app local authority", "-t", "C,,", "-i", str(authority)]
                subprocess.run([*certutil, *add], check=True)
            args = [*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
            if picture is not None:
                video = write_y4m(picture, tmp_path / f"camera-{len(browsers)}.y4m")
                args += [*CAMERA, f"--use-file-for-fake-video-capture={video}"]
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=args, env={**os.environ, "HOME": str(home)}
            )
            browsers.append(browser)
            return browser.new_context(viewport={"width": 360, "height": 780}).new_page()

        yield start
        for browser in browsers:
            browser.close()


def log_in_as_referee(page, base):
    page.goto(f"{base}/login?next=/referee/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/referee/")


def test_a_phone_trusting_the_authority_scans_with_the_camera_and_installs_the_app(
    app, laptop, chromium
):
    base = laptop["base"]
    page = chromium(laptop["files"].ca_cert, badge_front(app, base))
    page.goto(laptop["trust"])
    expect(page.locator("[data-check-result]")).to_have_text("✓ This phone trusts the server.")
    log_in_as_referee(page, base)
    assert page.evaluate("window.isSecureContext")
    page.goto(f"{base}/scan?event=1", wait_until="commit")
    page.wait_for_url(f"{base}/console/5", wait_until="commit")
    installed = page.evaluate("async () => Boolean((await navigator.serviceWorker.ready).active)")
    assert installed


def test_a_phone_without_the_authority_is_told_how_to_trust_the_server(laptop, chromium):
    page = chromium()
    with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
        page.goto(f"{laptop['base']}/scan")
    page = page.context.new_page()  # the refused tab may still be showing its error page
    page.goto(laptop["trust"])
    expect(page.locator("[data-check-result]")).to_contain_text("does not trust the server yet")
    expect(page.get_by_role("link", name="Download the certificate")).to_be_visible()
    expect(page.get_by_text("Install a certificate")).to_be_visible()
