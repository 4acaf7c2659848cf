/** A PDF document as the routes send it, shared by the quote, job-report, invoice and purchase-order routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface PdfFile {
  filename: string;
  bytes: Buffer;
}

/** As an attachment, never cached (a document not yet stored is drawn as it is now; a link can be revoked). */
export const sendPdf = (reply: FastifyReply, f: PdfFile) =>
  reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${f.filename}"`)
    .type('application/pdf')
    .send(f.bytes);

/** The tenant of the portal's host (set by the frontend's host resolution). */
export const hostTenant = (req: FastifyRequest) => {
  const v = req.headers['x-tenant-id'];
  return typeof v === 'string' ? v : undefined;
};
