// Vigil console: the only script. Pages work without it; it adds confirmations, auto-submit and file reading.
document.addEventListener('submit', (e) => {
  const form = e.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
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
