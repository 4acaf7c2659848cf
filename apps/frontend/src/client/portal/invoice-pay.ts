/**
 * The invoice's pay page (`/portal/invoice/:token`): "Pay" asks the control plane for the provider's
 * page for what is left to pay and goes there. The amount is the server's: the request carries none.
 */
import { $ } from '../shared/dom.js';

export function wireInvoicePay(token: string): void {
  $('#pay-invoice')?.addEventListener('click', async (e) => {
    const button = e.currentTarget as HTMLButtonElement;
    const msg = $('#pay-msg')!;
    button.disabled = true;
    msg.className = 'muted';
    msg.textContent = 'Opening the payment page…';
    const r = await fetch(`/api/control/portal/invoices/${encodeURIComponent(token)}/checkout`, {
      method: 'POST',
    }).catch(() => undefined);
    const body = r ? ((await r.json().catch(() => ({}))) as { url?: string; reason?: string }) : {};
    if (r?.ok && body.url) return location.assign(body.url);
    if (body.reason === 'paid') return location.reload();
    button.disabled = false;
    msg.className = 'err';
    msg.textContent = !r
      ? 'No connection: please try again.'
      : 'We could not open the payment page. Please try again or call us.';
  });
}
