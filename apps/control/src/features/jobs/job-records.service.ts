/**
 * What the field app adds to a job that the ERP's order has no place for: notes, checklist ticks,
 * photos and the customer's signature (uploaded by presigned PUT straight to object storage, then
 * registered once per key). Same rules as every mutation: idempotent, If-Match, audited.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { AuditLog } from '../audit/audit-log.js';
import { type Answer, type MutationContext, runMutation } from './job-mutation.js';
import { checklistItems } from './job-view.js';
import { detailsOf, insertAttachment, insertNote, memberOf, setChecklistItem } from './jobs.repo.js';
import type { JobsReader, LoadedJob } from './jobs.service.js';
import type { AttachmentKind } from './jobs.types.js';
import { measurementOf } from './measurements.repo.js';

/** Content types and sizes an upload may declare, per kind (a 12 MP photo is resized on the phone). */
export const UPLOAD_RULES: Record<AttachmentKind, { types: Record<string, string>; maxBytes: number }> = {
  photo_before: {
    types: { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' },
    maxBytes: 15 * 1024 * 1024,
  },
  photo_after: { types: { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' }, maxBytes: 15 * 1024 * 1024 },
  signature: { types: { 'image/png': 'png' }, maxBytes: 1024 * 1024 },
};
const UPLOAD_URL_SECONDS = 900;

const refused = (field: string, rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { fieldIssues: [{ field, rule, message }] });

export class JobRecords {
  constructor(
    private readonly deps: { db: Db; audit: AuditLog; objects: ObjectStore },
    private readonly reader: JobsReader,
  ) {}

  /** A change of platform rows only: nothing in the ERP, so the commit transaction is the whole effect. */
  private local(
    ctx: MutationContext,
    j: LoadedJob,
    action: string,
    request: unknown,
    commit: Parameters<typeof runMutation<null>>[2]['commit'],
  ): Promise<Answer> {
    return runMutation(this.deps, ctx, {
      action,
      request,
      baseVersion: j.order.version,
      checkVersion: (v) => this.reader.assertVersion(j, v),
      apply: async () => null,
      commit,
    });
  }

  async note(ctx: MutationContext, id: string, b: { body: string }): Promise<Answer> {
    const p = ctx.principal;
    const j = await this.reader.load(p, id);
    return this.local(ctx, j, 'job.note', ['POST', `/jobs/${id}/notes`, b], async (tx, _o, marker) => {
      const author = await memberOf(tx, p.userId);
      // The intent's marker is the note's id: a retried request writes the same row, once.
      await insertNote(tx, {
        id: marker,
        tenantId: p.tenantId,
        jobId: id,
        body: b.body,
        authorId: p.userId,
        authorName: author?.name ?? p.email,
      });
      return {
        outcome: 'created',
        body: await this.reader.view(tx, j),
        target: { type: 'job', id },
        detail: { note_id: marker },
      };
    });
  }

  async checklist(ctx: MutationContext, id: string, itemId: string, b: { done: boolean }): Promise<Answer> {
    const p = ctx.principal;
    const j = await this.reader.load(p, id);
    const windows = (await this.reader.inTenant(p, (tx) => detailsOf(tx, [id]))).windows;
    if (!checklistItems(windows).some((c) => c.id === itemId))
      throw new AppError('NOT_FOUND', 'No such checklist item.');
    return this.local(ctx, j, 'job.checklist', ['PATCH', `/jobs/${id}/checklist/${itemId}`, b], async (tx) => {
      await setChecklistItem(tx, { tenantId: p.tenantId, jobId: id, itemId, done: b.done, by: p.userId });
      return {
        outcome: 'updated',
        body: await this.reader.view(tx, j),
        target: { type: 'job', id },
        detail: { item: itemId, done: b.done },
      };
    });
  }

  async upload(
    ctx: MutationContext,
    id: string,
    b: { kind: AttachmentKind; content_type: string; bytes: number },
  ): Promise<Answer> {
    const p = ctx.principal;
    const j = await this.reader.load(p, id);
    const rule = UPLOAD_RULES[b.kind];
    const ext = rule.types[b.content_type];
    if (!ext)
      throw refused('content_type', 'not_allowed', `A ${b.kind} must be one of ${Object.keys(rule.types).join(', ')}.`);
    if (b.bytes > rule.maxBytes)
      throw refused('bytes', 'too_large', `A ${b.kind} may be at most ${rule.maxBytes} bytes.`);
    return runMutation(this.deps, ctx, {
      action: 'job.upload',
      request: ['POST', `/jobs/${id}/uploads`, b],
      baseVersion: j.order.version,
      checkVersion: (v) => this.reader.assertVersion(j, v),
      apply: async ({ marker }) => {
        const key = `${p.tenantId}/jobs/${id}/${b.kind}/${marker}.${ext}`;
        const url = await this.deps.objects.presign(key, { method: 'put', expiresIn: UPLOAD_URL_SECONDS });
        return { key, url };
      },
      commit: async (_tx, o) => ({
        outcome: 'created',
        body: {
          key: o.key,
          upload_url: o.url,
          method: 'PUT',
          headers: { 'content-type': b.content_type },
          expires_at: new Date(Date.now() + UPLOAD_URL_SECONDS * 1000).toISOString(),
        },
        target: { type: 'job', id },
        detail: { key: o.key, kind: b.kind, bytes: b.bytes },
      }),
    });
  }

  async attach(
    ctx: MutationContext,
    id: string,
    b: { key: string; kind: AttachmentKind; measurement_id?: string | undefined },
  ): Promise<Answer> {
    const p = ctx.principal;
    const j = await this.reader.load(p, id);
    const prefix = `${p.tenantId}/jobs/${id}/${b.kind}/`;
    const exts = Object.values(UPLOAD_RULES[b.kind].types).join('|');
    if (!b.key.startsWith(prefix) || !new RegExp(`^[0-9a-f-]{36}\\.(${exts})$`).test(b.key.slice(prefix.length)))
      throw refused(
        'key',
        'not_this_job',
        `key must be an upload key of this job for a ${b.kind} (from POST /jobs/{id}/uploads).`,
      );
    const stored = (await this.deps.objects.list(b.key)).find((o) => o.key === b.key);
    if (!stored)
      throw refused(
        'key',
        'not_uploaded',
        'Nothing was uploaded under this key yet: PUT the file to upload_url first.',
      );
    if (stored.size > UPLOAD_RULES[b.kind].maxBytes) {
      await this.deps.objects.delete(b.key);
      throw refused(
        'key',
        'too_large',
        `A ${b.kind} may be at most ${UPLOAD_RULES[b.kind].maxBytes} bytes; the upload was removed.`,
      );
    }
    return this.local(ctx, j, 'job.attach', ['POST', `/jobs/${id}/attachments`, b], async (tx) => {
      if (b.measurement_id && !(await measurementOf(tx, id, b.measurement_id)))
        throw refused('measurement_id', 'not_this_job', 'measurement_id must be a measured window of this job.');
      const created = await insertAttachment(tx, {
        tenantId: p.tenantId,
        jobId: id,
        key: b.key,
        kind: b.kind,
        bytes: stored.size,
        by: p.userId,
        measurementId: b.measurement_id,
      });
      return {
        outcome: created ? 'created' : 'updated',
        body: await this.reader.view(tx, j),
        target: { type: 'job', id },
        detail: { key: b.key, kind: b.kind, registered: created },
      };
    });
  }
}
