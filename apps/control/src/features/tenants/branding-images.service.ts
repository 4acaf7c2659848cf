/**
 * The company's logo and favicon (docs/control-plane.md, "Logo and favicon"): the uploaded bytes are
 * checked by their content, decoded and re-encoded by sharp to a PNG of bounded size, so what the
 * portal and the field app serve is never the uploader's file (no metadata, scripts or decoder
 * tricks survive). Stored in the tenants' object store under `<tenant>/branding/`, named by the
 * PNG's hash, and set as logo_url/favicon_url; both need the plan's `custom_branding`.
 */
import { createHash } from 'node:crypto';

import { BRANDING_IMAGE_NAME, type BrandingImageKind, brandingImagePath } from '@platform/contracts/branding.js';
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';
import sharp from 'sharp';

import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantSettingsService } from './tenant-settings.service.js';

/**
 * The three raster formats a browser shows everywhere, by their magic bytes. SVG is refused: it is a
 * document that can carry scripts and external references, and sanitising XML safely is a project of
 * its own; a PNG of the logo serves every page. Checked here, before any decoder sees the bytes.
 */
const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', test: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
];

export const sniffImage = (b: Buffer): string | undefined => SIGNATURES.find((s) => s.test(b))?.type;

/** Logo: at most 512 px high (and 1024 wide) as it was drawn; favicon: a 180 px square (browsers scale it down). */
const RENDER: Record<BrandingImageKind, (img: sharp.Sharp) => sharp.Sharp> = {
  logo: (img) => img.resize({ width: 1024, height: 512, fit: 'inside', withoutEnlargement: true }),
  favicon: (img) => img.resize({ width: 180, height: 180, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }),
};

const FIELD: Record<BrandingImageKind, 'logo_url' | 'favicon_url'> = { logo: 'logo_url', favicon: 'favicon_url' };

const fileIssue = (rule: string, message: string) => ({ fieldIssues: [{ field: 'file', rule, message }] });

export class BrandingImagesService {
  constructor(
    private readonly db: Db,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
    private readonly settings: Pick<TenantSettingsService, 'get' | 'update'>,
    private readonly objects: ObjectStore,
  ) {}

  /** Re-encodes and stores the image, sets the setting; answers the URL the browser loads it from. */
  async upload(
    tenantId: string,
    kind: BrandingImageKind,
    bytes: Buffer,
    by: { userId: string; ip?: string },
  ): Promise<{ url: string }> {
    // The plan first: a Free tenant learns what unlocks branding whatever file it sent.
    await withTenant(this.db, tenantId, (tx) => this.plans.assertFeature(tx, tenantId, 'custom_branding'));
    if (!bytes.length)
      throw new AppError(
        'VALIDATION_FAILED',
        'The upload is empty.',
        fileIssue('required', 'is empty: send the image as the request body'),
      );
    if (!sniffImage(bytes))
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'The file is not a PNG, JPEG or WebP image.',
        fileIssue('type', 'must be a PNG, JPEG or WebP image (SVG is not accepted)'),
      );
    const png = await this.reencode(kind, bytes);
    const name = `${kind}-${createHash('sha256').update(png).digest('hex').slice(0, 16)}.png`;
    await this.objects.put(`${tenantId}/branding/${name}`, png, { contentType: 'image/png' });
    const url = brandingImagePath(tenantId, name);
    const before = (await this.settings.get(tenantId))[FIELD[kind]];
    // As PUT …/settings sets it: the plan checked again and the change audited in one transaction.
    await this.settings.update(tenantId, { [FIELD[kind]]: url }, by);
    await this.forget(tenantId, before, name);
    return { url };
  }

  /** Deletes the image a new upload replaced, when it was one of ours (an external URL is left alone). */
  private async forget(tenantId: string, before: string | null, kept: string): Promise<void> {
    const prefix = brandingImagePath(tenantId, '');
    const old = before?.startsWith(prefix) ? before.slice(prefix.length) : '';
    if (!BRANDING_IMAGE_NAME.test(old) || old === kept) return;
    // Best effort: an object left behind costs a few kilobytes, a failed upload would cost more.
    await this.objects.delete(`${tenantId}/branding/${old}`).catch(() => undefined);
  }

  /** The stored PNG, for the public route (a logo is shown to anyone who opens the tenant's pages). */
  image(tenantId: string, name: string) {
    return this.objects.get(`${tenantId}/branding/${name}`).catch(() => {
      throw new AppError('NOT_FOUND', 'No such image.');
    });
  }

  private async reencode(kind: BrandingImageKind, bytes: Buffer): Promise<Buffer> {
    try {
      // limitInputPixels: a small file may still declare a huge canvas (a decompression bomb).
      const img = sharp(bytes, { limitInputPixels: 40_000_000, failOn: 'error' }).rotate();
      return await RENDER[kind](img).png({ compressionLevel: 9 }).toBuffer();
    } catch (e) {
      throw new AppError('VALIDATION_FAILED', 'The image could not be read.', {
        cause: e,
        ...fileIssue('image', 'could not be read as an image (damaged, or too many pixels)'),
      });
    }
  }
}
