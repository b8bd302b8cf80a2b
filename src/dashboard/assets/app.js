// Vigil console: the only script. Pages work without it; it adds confirmations, auto-submit, file reading and uploads.
document.addEventListener('submit', (e) => {
  const form = e.target;
  // getAttribute, not dataset: a form's field named `dataset` would hide it.
  const question = form instanceof HTMLFormElement ? form.getAttribute('data-confirm') : undefined;
  if (question && !window.confirm(question)) e.preventDefault();
});
for (const select of document.querySelectorAll('select[data-autosubmit]')) {
  select.addEventListener('change', () => select.form?.requestSubmit());
}
// A CSV file chosen in a file input fills the textarea named by data-into (the form posts text, no upload).
for (const input of document.querySelectorAll('input[type=file][data-into]')) {
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    const target = document.getElementById(input.dataset.into);
    if (file && target) target.value = await file.text();
  });
}
// A dataset upload sends the chosen file itself (no multipart), with the form's CSRF token in a header, then
// follows the server to the update's progress page; a refusal is shown above the button.
for (const form of document.querySelectorAll('form[data-upload]')) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const file = form.querySelector('input[type=file]')?.files?.[0];
    const dataset = form.querySelector('select[name=dataset]')?.value;
    const shown = form.querySelector('#upload-error');
    if (!file || !dataset) return;
    const button = form.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    try {
      const res = await fetch(`${form.action}/${encodeURIComponent(dataset)}?file=${encodeURIComponent(file.name)}`, {
        method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': form.getAttribute('data-csrf') ?? '' },
      });
      if (res.ok) {
        window.location.assign(res.url);
        return;
      }
      const page = new DOMParser().parseFromString(await res.text(), 'text/html');
      if (shown) {
        shown.textContent = page.querySelector('main p')?.textContent ?? `The upload was refused (${res.status}).`;
        shown.hidden = false;
      }
    } catch (err) {
      if (shown) {
        shown.textContent = `The upload failed: ${err instanceof Error ? err.message : String(err)}`;
        shown.hidden = false;
      }
    } finally {
      if (button) button.disabled = false;
    }
  });
}
