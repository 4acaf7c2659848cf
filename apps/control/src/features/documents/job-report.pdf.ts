/**
 * A job's report as a branded PDF: the customer and address, the technician and the times, every
 * window (sizes to the eighth), the checklist as ticked, the notes, the photos, and the customer's
 * signature on a page of its own (so it prints and files as the sign-off).
 */
import type { Job } from '@platform/contracts/job.js';

import {
  type DocumentBrand,
  footers,
  heading,
  letterhead,
  lines,
  MARGIN,
  newPdf,
  type Pdf,
  table,
  when,
  windowCells,
  windowColumns,
} from './pdf-layout.js';

/** A stored photo or signature, already made JPEG or PNG (what pdfkit draws). */
export interface ReportImage {
  label: string;
  at: string;
  bytes: Buffer | null;
}

function picture(doc: Pdf, img: ReportImage, x: number, y: number, w: number, h: number, tz: string) {
  if (img.bytes) {
    try {
      doc.image(img.bytes, x, y, { fit: [w, h], align: 'center', valign: 'center' });
    } catch {
      doc.text('(this picture could not be drawn)', x, y + h / 2, { width: w, align: 'center' });
    }
  } else doc.text('(this picture is not in storage)', x, y + h / 2, { width: w, align: 'center' });
  doc.fontSize(9).text(`${img.label} · ${when(img.at, tz)}`, x, y + h + 4, { width: w, align: 'center' });
}

/** Two photos a row, each 180 points high with its caption. */
function photos(doc: Pdf, images: ReportImage[], tz: string) {
  const w = (doc.page.width - 2 * MARGIN - 20) / 2;
  const h = 180;
  for (let i = 0; i < images.length; i += 2) {
    if (doc.y + h + 30 > doc.page.height - MARGIN - 30) doc.addPage();
    const y = doc.y;
    picture(doc, images[i]!, MARGIN, y, w, h, tz);
    if (images[i + 1]) picture(doc, images[i + 1]!, MARGIN + w + 20, y, w, h, tz);
    doc.y = y + h + 24;
  }
  doc.x = MARGIN;
}

export async function renderJobReportPdf(
  brand: DocumentBrand,
  job: Job,
  images: { photos: ReportImage[]; signature: ReportImage | null },
): Promise<Buffer> {
  const tz = brand.timeZone;
  const title = `Job report ${job.name}`;
  const { doc, done } = newPdf(title);
  letterhead(doc, brand, title, [
    `Technician: ${job.technician?.name ?? 'not assigned'}`,
    `Scheduled: ${when(job.scheduled_start, tz)} to ${when(job.scheduled_end, tz)}`,
    `Stage: ${job.stage.name}`,
  ]);
  heading(doc, 'Customer');
  const a = job.address;
  lines(
    doc,
    [
      job.customer?.name ?? '',
      a.street ?? '',
      [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
      job.customer?.phone ?? '',
      job.customer?.email ?? '',
    ].filter(Boolean),
  );
  heading(doc, `Windows (${job.windows.length})`);
  table(
    doc,
    brand,
    windowColumns(),
    job.windows.map((w, i) => windowCells(i + 1, w, w.mount, w.colour ?? null)),
  );
  heading(doc, 'Checklist');
  table(
    doc,
    brand,
    [
      { label: 'Step', share: 0.84 },
      { label: 'Done', share: 0.16 },
    ],
    job.checklist.map((c) => [c.label, c.done ? 'Done' : 'Not done']),
  );
  heading(doc, 'Notes');
  lines(doc, job.notes.length ? job.notes.map((n) => `${when(n.at, tz)}, ${n.author.name}: ${n.body}`) : ['No notes.']);
  if (job.resolution) lines(doc, [`Resolution: ${job.resolution}`]);
  heading(doc, `Photos (${images.photos.length})`, 220);
  if (images.photos.length) photos(doc, images.photos, tz);
  else lines(doc, ['No photos.']);
  // The sign-off: its own page, so it prints as one.
  doc.addPage();
  heading(doc, 'Customer signature');
  if (images.signature) {
    lines(doc, [`Signed by ${job.customer?.name ?? 'the customer'} on ${when(images.signature.at, tz)}.`]);
    doc.moveDown(0.5);
    picture(doc, images.signature, MARGIN, doc.y, 300, 120, tz);
  } else lines(doc, ['Not signed yet.']);
  footers(doc, brand);
  doc.end();
  return done;
}
