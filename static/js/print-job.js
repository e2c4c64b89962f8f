// Follow a background badge print until its PDF is ready.
const box = document.querySelector("[data-print-job]");
if (box) {
  const bar = box.querySelector("progress");
  const status = box.querySelector("[data-status]");
  const download = box.querySelector("[data-download]");
  const poll = async () => {
    const answer = await fetch(box.dataset.printJob, { credentials: "same-origin" });
    const job = await answer.json();
    bar.max = Math.max(job.total, 1);
    bar.value = job.done;
    if (job.status === "done") {
      status.textContent = `✓ ${job.done} / ${job.total}`;
      download.hidden = !job.download;
      const leftOut = box.querySelector("[data-left-out]");
      if (leftOut && job.left_out) {
        leftOut.querySelector("span").textContent = job.left_out;
        leftOut.hidden = false;
      }
      return;
    }
    if (job.status === "failed") {
      status.textContent = `✖ ${job.error}`;
      const again = document.querySelector("[data-again]");
      if (again) again.hidden = false;
      return;
    }
    status.textContent = `… ${job.done} / ${job.total}`;
    setTimeout(poll, 1000);
  };
  poll();
}
