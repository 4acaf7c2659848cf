/**
 * "Download PDF" in the office: the PDF is fetched with the signed-in person's token (a plain link
 * would carry none) and handed to the browser as a download under the server's file name. A refusal
 * (the plan, the role) is said in the page's message line.
 */
import { callFile } from '../field/api.js';
import { say } from './office-common.js';
import { refusal } from './settings-common.js';

export async function downloadPdf(path: string, fallbackName: string, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  say('Preparing the PDF…', 'office-msg');
  try {
    const f = await callFile(path, fallbackName);
    const url = URL.createObjectURL(f.blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = f.filename;
    document.body.append(a);
    a.click();
    a.remove();
    // The browser has taken the file once the click is handled; the URL is freed a little later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    say(`Downloaded ${f.filename}.`, 'office-msg', 'ok');
  } catch (e) {
    say(refusal(e), 'office-msg', 'err');
  } finally {
    button.disabled = false;
  }
}
