/** The quote portal: accept with name and signature, or ask for changes (token access, no account). */
import type { PortalInvoicesAnswer } from '@platform/contracts/quote.js';
import SignaturePad from 'signature_pad';

import { $, uuid } from '../shared/dom.js';
import { wireInvoicePay } from './invoice-pay.js';

const token = document.body.dataset.token ?? '';
const base = `/api/control/portal/quotes/${encodeURIComponent(token)}`;
const canvas = $<HTMLCanvasElement>('#acc-sig');
let pad: SignaturePad | undefined;
if (canvas) {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  canvas.width = canvas.offsetWidth * ratio;
  canvas.height = canvas.offsetHeight * ratio;
  canvas.getContext('2d')!.scale(ratio, ratio);
  pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255,255,255)' });
}
$('#acc-clear')?.addEventListener('click', () => pad?.clear());

async function post(path: string, body: unknown, key: string): Promise<Response | undefined> {
  try {
    return await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  } catch {
    return undefined;
  }
}

const acceptKey = uuid();
$('#accept-form')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const msg = $('#acc-msg')!;
  const nameInput = $<HTMLInputElement>('#acc-name')!;
  const name = nameInput.value.trim();
  nameInput.setAttribute('aria-invalid', String(!name));
  if (!name) return void ((msg.className = 'err'), (msg.textContent = 'Type your full name.'));
  if (!pad || pad.isEmpty()) return void ((msg.className = 'err'), (msg.textContent = 'Sign in the box first.'));
  const png = pad.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  msg.className = 'muted';
  msg.textContent = 'Sending…';
  const r = await post('/accept', { name, signature_png_base64: png }, acceptKey);
  if (r?.ok) {
    $('#accept-form')!.innerHTML =
      '<p class="ok">Thank you: your quote is accepted. We will call you to schedule the installation.</p>';
    $('#changes-form')?.closest('section')?.remove();
    // A card deposit is due now: the page, rendered again by the server, offers "Pay deposit".
    if (document.body.dataset.depositState === 'due') location.reload();
    return;
  }
  msg.className = 'err';
  msg.textContent = !r
    ? 'No connection: please try again.'
    : r.status === 404
      ? 'This link no longer works. Please ask us for a new one.'
      : 'We could not record your acceptance. Please try again or call us.';
});

let changesKey = uuid();
$('#changes-form')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const msg = $('#chg-msg')!;
  const note = $<HTMLTextAreaElement>('#chg-note')!.value.trim();
  if (!note) return void ((msg.className = 'err'), (msg.textContent = 'Write what you would like changed.'));
  const r = await post('/request-changes', { note }, changesKey);
  if (r?.ok) {
    changesKey = uuid();
    $<HTMLTextAreaElement>('#chg-note')!.value = '';
    msg.className = 'ok';
    msg.textContent = 'Sent: the office will get back to you.';
    return;
  }
  msg.className = 'err';
  msg.textContent = r
    ? 'We could not send your note. Please try again or call us.'
    : 'No connection: please try again.';
});

/** An accepted quote's invoices, each a PDF download; the section stays hidden while there are none. */
async function showInvoices(): Promise<void> {
  const list = $('#invoice-list');
  if (!list) return;
  const r = await fetch(`${base}/invoices`).catch(() => undefined);
  if (!r?.ok) return;
  const { invoices } = (await r.json()) as PortalInvoicesAnswer;
  if (!invoices.length) return;
  const currency = document.body.dataset.currency || 'USD';
  const money = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency });
  list.replaceChildren(
    ...invoices.map((i) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `${base}/invoices/${i.id}/pdf`;
      a.setAttribute('download', '');
      a.textContent = `Download invoice ${i.number} (PDF)`;
      const due = document.createElement('span');
      due.className = 'muted';
      due.textContent = ` · total ${money(i.amount_total)}, ${i.amount_due > 0 ? `${money(i.amount_due)} due` : 'paid'}`;
      li.append(a, due);
      return li;
    }),
  );
  $('#invoices')!.hidden = false;
}
void showInvoices();

// The amount and currency are the server's: the request carries none. A second click gets the same page.
$('#pay-deposit')?.addEventListener('click', async () => {
  const msg = $('#dep-msg')!;
  msg.className = 'muted';
  msg.textContent = 'Opening the payment page…';
  const r = await fetch(`${base}/deposit-checkout`, { method: 'POST' }).catch(() => undefined);
  const body = r ? ((await r.json().catch(() => ({}))) as { url?: string; reason?: string }) : {};
  if (r?.ok && body.url) return location.assign(body.url);
  if (body.reason === 'paid') return location.reload();
  msg.className = 'err';
  msg.textContent = !r
    ? 'No connection: please try again.'
    : 'We could not open the payment page. Please try again or call us.';
});

wireInvoicePay(token);
