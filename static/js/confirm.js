// A form with data-confirm asks before it is sent (a script file: the Content-Security-Policy allows no inline
// handlers).
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
