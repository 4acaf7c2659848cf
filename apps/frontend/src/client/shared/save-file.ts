/** Saves text made or fetched in the page as a file the browser downloads (a CSV export). */
export function saveFile(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  // The click has started the download by the next tick; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
