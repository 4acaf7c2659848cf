/**
 * Gallery images (docs/website.md): the upload is checked by its bytes (PNG, JPEG or WebP), decoded
 * and re-encoded by sharp to a WebP at most 1600 px wide, so no metadata, script or decoder trick of
 * the uploader's file reaches a page, and stored under `<tenant>/website/<hash>.webp`: the key is the
 * gallery item's `image_key`, and the landing serves it with `readWebsiteImage`.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

import { WEBSITE_LIMITS } from '@platform/contracts/website.js';
import { AppError } from '@platform/kernel';
import { ObjectNotFoundError, type ObjectStore } from '@platform/storage';
import sharp from 'sharp';

export const WEBSITE_IMAGE_MAX_WIDTH = 1600;

const fileIssue = (rule: string, message: string) => ({ fieldIssues: [{ field: 'file', rule, message }] });

function sniff(b: Buffer): boolean {
  const png = b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  const webp = b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';
  return png || jpeg || webp;
}

/** A key of this tenant's gallery: what a draft may name and what the landing may serve. */
export const websiteImageKeyPattern = (tenantId: string) =>
  new RegExp(`^${tenantId.replace(/[^0-9a-f-]/gi, '')}/website/[0-9a-f]{32}\\.webp$`);

export interface StoredWebsiteImage {
  image_key: string;
  width: number;
  height: number;
}

export async function storeWebsiteImage(
  objects: ObjectStore,
  tenantId: string,
  bytes: Buffer,
): Promise<StoredWebsiteImage> {
  if (!bytes.length)
    throw new AppError('VALIDATION_FAILED', 'The upload is empty.', fileIssue('required', 'is empty: send the image'));
  if (bytes.length > WEBSITE_LIMITS.imageBytes)
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      'The image is larger than 5 MiB.',
      fileIssue('max_bytes', 'must be at most 5 MiB'),
    );
  if (!sniff(bytes))
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The file is not a PNG, JPEG or WebP image.',
      fileIssue('type', 'must be a PNG, JPEG or WebP image'),
    );
  let out: { data: Buffer; info: sharp.OutputInfo };
  try {
    // limitInputPixels: a small file may still declare a huge canvas (a decompression bomb).
    out = await sharp(bytes, { limitInputPixels: 40_000_000, failOn: 'error' })
      .rotate()
      .resize({ width: WEBSITE_IMAGE_MAX_WIDTH, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  } catch (e) {
    throw new AppError('VALIDATION_FAILED', 'The image could not be read.', {
      cause: e,
      ...fileIssue('image', 'could not be read as an image (damaged, or too many pixels)'),
    });
  }
  const hash = createHash('sha256').update(out.data).digest('hex').slice(0, 32);
  const image_key = `${tenantId}/website/${hash}.webp`;
  await objects.put(image_key, out.data, { contentType: 'image/webp' });
  return { image_key, width: out.info.width, height: out.info.height };
}

/** The stored WebP of this tenant's gallery; NOT_FOUND for any other key (another tenant's too). */
export async function readWebsiteImage(objects: ObjectStore, tenantId: string, key: string): Promise<Readable> {
  if (!websiteImageKeyPattern(tenantId).test(key)) throw new AppError('NOT_FOUND', 'No such image.');
  try {
    return await objects.get(key);
  } catch (e) {
    if (e instanceof ObjectNotFoundError) throw new AppError('NOT_FOUND', 'No such image.');
    throw e;
  }
}
