/**
 * The messages the platform sends, text and HTML, branded per tenant. Each template validates its
 * data (zod), so a bad link or a missing name fails at enqueue time, never at delivery.
 */
import { z } from 'zod';

import type { Brand } from './brand.js';
import { html, safeUrl } from './html.js';
import { button, layout, textFooter } from './layout.js';

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform(safeUrl);
const name = z.string().trim().min(1).max(100);

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

interface Template<S extends z.ZodType> {
  schema: S;
  sample: z.input<S>;
  render(brand: Brand, d: z.output<S>): Rendered;
}

const define = <S extends z.ZodType>(t: Template<S>): Template<S> => t;

export const TEMPLATES = {
  password_reset: define({
    schema: z.object({
      name: name.optional(),
      resetUrl: url,
      expiresInMinutes: z.number().int().min(1).max(1440).default(60),
    }),
    sample: { name: 'Jane Roe', resetUrl: 'https://app.example.com/reset?token=sample', expiresInMinutes: 60 },
    render: (b, d) => ({
      subject: `Reset your ${b.companyName} password`,
      text: `Hello${d.name ? ` ${d.name}` : ''},\n\nSomeone asked to reset the password of your ${b.companyName} account. Open this link within ${d.expiresInMinutes} minutes to choose a new one:\n${d.resetUrl}\n\nIf it was not you, ignore this email: your password stays as it is.${textFooter(b)}`,
      html: layout(
        b,
        'Reset your password',
        html`<p>Hello${d.name ? html` ${d.name}` : ''},</p><p>Someone asked to reset the password of your ${b.companyName} account. The link works for ${d.expiresInMinutes} minutes.</p>${button(b, d.resetUrl, 'Choose a new password')}<p>If it was not you, ignore this email: your password stays as it is.</p>`,
      ),
    }),
  }),
  email_verification: define({
    schema: z.object({
      name: name.optional(),
      verifyUrl: url,
      expiresInHours: z.number().int().min(1).max(720).default(48),
    }),
    sample: { name: 'Jane Roe', verifyUrl: 'https://app.example.com/verify-email#token=sample', expiresInHours: 48 },
    render: (b, d) => ({
      subject: `Verify your email for ${b.companyName}`,
      text: `Hello${d.name ? ` ${d.name}` : ''},\n\nWelcome to ${b.companyName}. Open this link within ${d.expiresInHours} hours to verify your email address:\n${d.verifyUrl}\n\nUntil then you can set up your company, but not send quotes or invite your team.${textFooter(b)}`,
      html: layout(
        b,
        'Verify your email',
        html`<p>Hello${d.name ? html` ${d.name}` : ''},</p><p>Welcome to ${b.companyName}. The link works for ${d.expiresInHours} hours.</p>${button(b, d.verifyUrl, 'Verify my email')}<p>Until then you can set up your company, but not send quotes or invite your team.</p>`,
      ),
    }),
  }),
  invitation: define({
    schema: z.object({ inviterName: name, acceptUrl: url, role: z.string().max(50).optional() }),
    sample: { inviterName: 'Sam Office', acceptUrl: 'https://app.example.com/invite?token=sample', role: 'technician' },
    render: (b, d) => ({
      subject: `${d.inviterName} invited you to ${b.companyName}`,
      text: `${d.inviterName} invited you to join ${b.companyName}${d.role ? ` as ${d.role}` : ''}.\nAccept the invitation: ${d.acceptUrl}${textFooter(b)}`,
      html: layout(
        b,
        'Invitation',
        html`<p>${d.inviterName} invited you to join ${b.companyName}${d.role ? html` as ${d.role}` : ''}.</p>${button(b, d.acceptUrl, 'Accept the invitation')}`,
      ),
    }),
  }),
  portal_quote_link: define({
    schema: z.object({
      customerName: name,
      quoteNumber: z.string().min(1).max(40),
      portalUrl: url,
      expiresOn: z.string().max(40).optional(),
      /** The quote's PDF goes with the email (docs/documents.md). */
      pdfAttached: z.boolean().optional(),
    }),
    sample: {
      customerName: 'Jane Roe',
      quoteNumber: 'S00042',
      portalUrl: 'https://portal.example.com/portal/quote/sample',
      expiresOn: '2026-12-31',
      pdfAttached: true,
    },
    render: (b, d) => ({
      subject: `Your quote ${d.quoteNumber} from ${b.companyName}`,
      text: `Hello ${d.customerName},\n\nYour quote ${d.quoteNumber} is ready: ${d.portalUrl}${d.expiresOn ? `\nThe link works until ${d.expiresOn}.` : ''}${d.pdfAttached ? '\nA PDF copy is attached.' : ''}${textFooter(b)}`,
      html: layout(
        b,
        'Your quote',
        html`<p>Hello ${d.customerName},</p><p>Your quote ${d.quoteNumber} is ready to review and accept.</p>${button(b, d.portalUrl, 'View your quote')}${d.expiresOn ? html`<p>The link works until ${d.expiresOn}.</p>` : ''}${d.pdfAttached ? html`<p>A PDF copy of the quote is attached.</p>` : ''}`,
      ),
    }),
  }),
  invoice_pay_link: define({
    schema: z.object({
      customerName: name,
      invoiceNumber: z.string().min(1).max(40),
      /** The amount due, formatted in the tenant's currency by the sender. */
      amountDue: z.string().min(1).max(40),
      payUrl: url,
      expiresOn: z.string().max(40).optional(),
      /** The invoice's PDF goes with the email (docs/documents.md). */
      pdfAttached: z.boolean().optional(),
    }),
    sample: {
      customerName: 'Jane Roe',
      invoiceNumber: 'INV/2026/0042',
      amountDue: '$1,234.56',
      payUrl: 'https://portal.example.com/portal/invoice/sample',
      expiresOn: '2026-12-31',
      pdfAttached: true,
    },
    render: (b, d) => ({
      subject: `Your invoice ${d.invoiceNumber} from ${b.companyName}`,
      text: `Hello ${d.customerName},\n\nYour invoice ${d.invoiceNumber} is ready. Amount due: ${d.amountDue}.\nPay it here: ${d.payUrl}${d.expiresOn ? `\nThe link works until ${d.expiresOn}.` : ''}${d.pdfAttached ? '\nA PDF copy is attached.' : ''}${textFooter(b)}`,
      html: layout(
        b,
        'Your invoice',
        html`<p>Hello ${d.customerName},</p><p>Your invoice ${d.invoiceNumber} is ready. Amount due: <strong>${d.amountDue}</strong>.</p>${button(b, d.payUrl, 'View and pay your invoice')}${d.expiresOn ? html`<p>The link works until ${d.expiresOn}.</p>` : ''}${d.pdfAttached ? html`<p>A PDF copy of the invoice is attached.</p>` : ''}`,
      ),
    }),
  }),
  job_scheduled: define({
    schema: z.object({
      customerName: name,
      date: z.string().min(1).max(40),
      window: z.string().max(40).optional(),
      address: z.string().max(300).optional(),
    }),
    sample: { customerName: 'Jane Roe', date: 'Tuesday 1 December', window: '9:00–11:00', address: '12 Elm Street' },
    render: (b, d) => ({
      subject: `Your appointment with ${b.companyName} on ${d.date}`,
      text: `Hello ${d.customerName},\n\nYour appointment is booked for ${d.date}${d.window ? `, ${d.window}` : ''}${d.address ? ` at ${d.address}` : ''}.${textFooter(b)}`,
      html: layout(
        b,
        'Appointment booked',
        html`<p>Hello ${d.customerName},</p><p>Your appointment is booked for <strong>${d.date}${d.window ? html`, ${d.window}` : ''}</strong>${d.address ? html` at ${d.address}` : ''}.</p>`,
      ),
    }),
  }),
  technician_on_the_way: define({
    schema: z.object({
      customerName: name,
      technicianName: name,
      etaMinutes: z.number().int().min(0).max(600).optional(),
    }),
    sample: { customerName: 'Jane Roe', technicianName: 'Alex Fitter', etaMinutes: 25 },
    render: (b, d) => ({
      subject: `${d.technicianName} from ${b.companyName} is on the way`,
      text: `Hello ${d.customerName},\n\n${d.technicianName} is on the way${d.etaMinutes !== undefined ? ` and should arrive in about ${d.etaMinutes} minutes` : ''}.${textFooter(b)}`,
      html: layout(
        b,
        'On the way',
        html`<p>Hello ${d.customerName},</p><p>${d.technicianName} is on the way${d.etaMinutes !== undefined ? html` and should arrive in about ${d.etaMinutes} minutes` : ''}.</p>`,
      ),
    }),
  }),
  purchase_order: define({
    schema: z.object({
      supplierName: name,
      orderNumber: z.string().min(1).max(40),
      /** One entry per line: quantity, product, exact size, mount, colour and options. */
      lines: z.array(z.string().trim().min(1).max(1000)).min(1).max(200),
      /** When the company expects it (the supplier's lead time), formatted by the sender. */
      expectedBy: z.string().max(40).optional(),
      pdfAttached: z.boolean().optional(),
    }),
    sample: {
      supplierName: 'Shade Mill',
      orderNumber: 'P00042',
      lines: ['1 × Roller shade – Office\n46 1/8" W × 48 1/2" H, inside mount, White'],
      expectedBy: '2026-12-18',
      pdfAttached: true,
    },
    render: (b, d) => ({
      subject: `Purchase order ${d.orderNumber} from ${b.companyName}`,
      text: `Hello ${d.supplierName},\n\nPlease supply our purchase order ${d.orderNumber}:\n\n${d.lines.map((l) => `- ${l.replace(/\n/g, '\n  ')}`).join('\n')}${d.expectedBy ? `\n\nWe expect it by ${d.expectedBy}.` : ''}${d.pdfAttached ? '\nThe order is attached as a PDF.' : ''}${textFooter(b)}`,
      html: layout(
        b,
        `Purchase order ${d.orderNumber}`,
        html`<p>Hello ${d.supplierName},</p><p>Please supply our purchase order ${d.orderNumber}:</p><ul>${d.lines.map((l) => html`<li style="white-space:pre-line">${l}</li>`)}</ul>${d.expectedBy ? html`<p>We expect it by ${d.expectedBy}.</p>` : ''}${d.pdfAttached ? html`<p>The order is attached as a PDF.</p>` : ''}`,
      ),
    }),
  }),
  /** A tenant's own customer message (docs/messages.md): its subject and text, placeholders already filled. */
  customer_message: define({
    schema: z.object({ subject: z.string().trim().min(1).max(200), body: z.string().trim().min(1).max(5000) }),
    sample: { subject: 'Your appointment tomorrow', body: 'Hello Jane,\n\nSee you tomorrow between 10:00 and 12:00.' },
    render: (b, d) => ({
      subject: d.subject,
      text: `${d.body}${textFooter(b)}`,
      html: layout(
        b,
        d.subject,
        html`${d.body.split(/\n{2,}/).map((para) => html`<p>${para.split('\n').flatMap((l, i) => (i ? [html`<br>`, l] : [l]))}</p>`)}`,
      ),
    }),
  }),
  lead_acknowledgement: define({
    schema: z.object({ name, summary: z.string().max(500).optional() }),
    sample: { name: 'Jane Roe', summary: 'Estimate for 4 roller shades' },
    render: (b, d) => ({
      subject: `Thanks for contacting ${b.companyName}`,
      text: `Hello ${d.name},\n\nThank you: we received your request${d.summary ? ` (${d.summary})` : ''} and will be in touch shortly.${textFooter(b)}`,
      html: layout(
        b,
        'Request received',
        html`<p>Hello ${d.name},</p><p>Thank you: we received your request${d.summary ? html` (${d.summary})` : ''} and will be in touch shortly.</p>`,
      ),
    }),
  }),
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];
export const isTemplateName = (s: string): s is TemplateName => Object.hasOwn(TEMPLATES, s);
