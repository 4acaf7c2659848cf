/**
 * Shrinks a camera photo on the phone before it is queued: a 12 MP frame (4000 × 3000, 3-6 MB)
 * becomes at most 1600 px on its long side as JPEG (about 200-400 KB), which is plenty for a
 * before/after record and uploads on one bar of signal.
 */
export const MAX_EDGE = 1600;

export async function resizePhoto(file: Blob, maxEdge = MAX_EDGE, quality = 0.8): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' } as ImageBitmapOptions);
  try {
    const scale = Math.min(1, maxEdge / Math.max(bitmap.width, bitmap.height));
    const w = Math.max(1, Math.round(bitmap.width * scale));
    const h = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, w, h);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the photo'))), 'image/jpeg', quality),
    );
  } finally {
    bitmap.close();
  }
}
