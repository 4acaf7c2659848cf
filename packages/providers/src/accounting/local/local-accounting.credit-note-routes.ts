/**
 * Credit note routes of the LOCAL stand-in, behind the same gate as the rest of the API: create
 * (`PUT`/`POST /CreditNotes`, sends CREDITNOTE CREATE) and allocate (`PUT /CreditNotes/{id}/Allocations`,
 * sends CREDITNOTE UPDATE and INVOICE UPDATE, as the invoice's AmountDue changes). Rules:
 * local-accounting.credit-notes.ts. Reading one is `GET /CreditNotes/{id}` (local-accounting.api-routes.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { type ApiDeps, apiGate } from './local-accounting.gate.js';
import { invalid, type Json, msDate } from './local-accounting.records.js';

const list = (body: unknown, key: string): Json[] => {
  const b = body && typeof body === 'object' ? (body as Json) : {};
  return Array.isArray(b[key]) ? (b[key] as Json[]) : [];
};

export function registerLocalCreditNoteRoutes(
  app: FastifyInstance,
  d: ApiDeps,
  base: string,
  unitDp: (req: FastifyRequest) => 2 | 4,
): void {
  const { envelope, handle } = apiGate(d);
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: `${base}/CreditNotes`,
      handler: handle((t, req) => {
        const raws = list(req.body, 'CreditNotes');
        if (raws.length === 0) invalid('CreditNotes must hold at least one credit note');
        const made = raws.map((raw) => t.credits.notes.create(raw, unitDp(req)));
        for (const cn of made) d.webhooks.event(t.tenantId, 'CREDITNOTE', 'CREATE', cn.CreditNoteID);
        return envelope(
          'CreditNotes',
          made.map((cn) => t.credits.notes.json(cn)),
        );
      }),
    });
  }
  app.put(
    `${base}/CreditNotes/:id/Allocations`,
    handle((t, req) => {
      const id = (req.params as { id: string }).id;
      const raws = list(req.body, 'Allocations');
      if (raws.length === 0) invalid('Allocations must hold at least one allocation');
      const done = raws.map((raw) => t.credits.notes.allocate(id, raw));
      for (const { note, invoice } of done) {
        d.webhooks.event(t.tenantId, 'CREDITNOTE', 'UPDATE', note.CreditNoteID);
        d.webhooks.invoiceUpdated(t.tenantId, invoice.InvoiceID);
      }
      return {
        Allocations: done.map(({ note, invoice, amount }) => ({
          Amount: amount,
          Date: msDate(Date.parse(`${note.Allocations.at(-1)!.Date}T00:00:00Z`)),
          Invoice: { InvoiceID: invoice.InvoiceID, InvoiceNumber: invoice.InvoiceNumber },
          CreditNote: { CreditNoteID: note.CreditNoteID, CreditNoteNumber: note.CreditNoteNumber },
        })),
      };
    }),
  );
}
