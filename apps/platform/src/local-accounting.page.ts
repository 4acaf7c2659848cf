/**
 * The accounting stand-in's page on the local console (local-accounting.console.ts): per organisation,
 * each invoice with what it owes, its credit notes and payments, each with the control a person uses
 * in Xero (add a credit note, remove it, pay, delete a payment), and its contacts, editable.
 */
import type { RunningLocalAccounting } from '@platform/providers/local';
import { escapeHtml as esc } from '@platform/web/escape-html.js';

type Json = Record<string, unknown>;
const money = (v: unknown): string => Number(v ?? 0).toFixed(2);
const items = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

const button = (action: string, field: string, id: unknown, label: string): string =>
  `<form method="post" action="${action}" class="inline"><input type="hidden" name="${field}" value="${esc(String(id))}"><button>${label}</button></form>`;

const amountForm = (action: string, invoiceId: unknown, label: string, buttonText: string, max: unknown): string =>
  `<form method="post" action="${action}" class="row"><input type="hidden" name="invoice_id" value="${esc(String(invoiceId))}">` +
  `<label>${label} <input name="amount" inputmode="decimal" required pattern="[0-9]+(\\.[0-9]{1,2})?" value="${money(max)}" size="8"></label><button>${buttonText}</button></form>`;

function invoiceCard(i: Json): string {
  const notes = items(i['CreditNotes']).map(
    (c) =>
      `<li>Credit note ${esc(String(c['CreditNoteNumber'] ?? ''))}: ${money(c['AppliedAmount'])} ${button('/acct/credit-notes/remove', 'credit_note_id', c['CreditNoteID'], 'Remove')}</li>`,
  );
  const payments = items(i['Payments']).map(
    (p) =>
      `<li>Payment ${money(p['Amount'])} on ${esc(String(p['Date'] ?? ''))} ${button('/acct/payments/delete', 'payment_id', p['PaymentID'], 'Delete')}</li>`,
  );
  const open = i['Status'] === 'AUTHORISED';
  return `<article class="card"><h3>${esc(String(i['InvoiceNumber'] ?? ''))} <small>${esc(String(i['Status']))}</small></h3>
<p>${esc(String((i['Contact'] as Json | undefined)?.['Name'] ?? ''))} · total ${money(i['Total'])} · <strong>due ${money(i['AmountDue'])}</strong></p>
${notes.length || payments.length ? `<ul>${[...notes, ...payments].join('')}</ul>` : ''}
${open ? amountForm('/acct/credit-notes', i['InvoiceID'], 'Credit note amount', 'Add credit note', i['AmountDue']) + amountForm('/acct/payments', i['InvoiceID'], 'Payment amount', 'Pay', i['AmountDue']) : ''}</article>`;
}

function contactCard(c: Json): string {
  return `<form method="post" action="/acct/contacts/edit" class="card row"><input type="hidden" name="contact_id" value="${esc(String(c['ContactID']))}">
<label>Name <input name="name" required value="${esc(String(c['Name'] ?? ''))}"></label>
<label>Email <input name="email" type="email" value="${esc(String(c['EmailAddress'] ?? ''))}"></label><button>Save</button></form>`;
}

export function renderAccountingPage(acc: RunningLocalAccounting, error?: string): string {
  const orgs = acc.tenants.map((t) => {
    const invoices = acc.invoices(t.tenantId);
    const contacts = acc.contacts(t.tenantId);
    return `<section><h2>${esc(t.tenantName)}</h2>
<h3 class="sub">Invoices</h3>${invoices.length ? invoices.map(invoiceCard).join('') : '<p>No invoices yet: post one in the ERP and it is sent here.</p>'}
<h3 class="sub">Contacts</h3>${contacts.length ? contacts.map(contactCard).join('') : '<p>No contacts yet.</p>'}</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accounting stand-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ddd;border-radius:.4rem;padding:.6rem .8rem;margin:.6rem 0}.card h3{margin:.2rem 0}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.3rem 0}.inline{display:inline}
label{display:flex;flex-direction:column;font-size:.85rem;gap:.15rem}input{font:inherit;padding:.3rem;max-width:100%}
button{font:inherit;padding:.3rem .7rem}.sub{color:#555;font-size:1rem}.error{background:#fde8e8;padding:.6rem;border-radius:.4rem}
ul{padding-left:1.2rem}li{margin:.3rem 0}</style></head>
<body><main><h1>Accounting stand-in</h1>
<p>What a person does in Xero's screens: each change sends Xero's notice to the ERP host. <a href="/">Messages</a> · <a href="/mail">Mail</a></p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}${orgs.join('')}</main></body></html>`;
}
