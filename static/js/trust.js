// The trust page: does this phone accept the laptop's HTTPS? An icon of the app loads only
// when the phone trusts its certificate.
const box = document.querySelector("[data-trust-check]");
if (box) {
  const result = box.querySelector("[data-check-result]");
  const open = box.querySelector("[data-open-app]");
  const check = () => {
    result.textContent = box.dataset.msgChecking;
    const probe = new Image();
    probe.onload = () => {
      result.textContent = box.dataset.msgTrusted;
      open.hidden = false;
    };
    probe.onerror = () => {
      result.textContent = box.dataset.msgNotTrusted;
      open.hidden = true;
    };
    probe.src = `${box.dataset.trustCheck}?check=${Date.now()}`;
  };
  box.querySelector("[data-check]").addEventListener("click", check);
  check();
}
