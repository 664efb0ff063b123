import decodeHeic from "heic-decode";

/**
 * HEIC (iPhone photos): the image library's own build reads AVIF but not HEIC, so HEIC goes
 * through libheif compiled to WebAssembly. The container is read first, so the size is known
 * (and refused above the cap) before a pixel is decoded; what comes out is upright RGBA pixels
 * with no metadata, which the pipeline then treats like any other picture.
 */
export type HeicImage = { ok: true; width: number; height: number; decode(): Promise<Uint8Array> } | { ok: false };

export async function openHeic(bytes: Uint8Array): Promise<{ image: HeicImage; close(): void }> {
  let images: Awaited<ReturnType<typeof decodeHeic.all>>;
  try {
    images = await decodeHeic.all({ buffer: bytes });
  } catch {
    return { image: { ok: false }, close: () => {} };
  }
  const first = images[0];
  const close = () => images.dispose();
  if (!first || first.width <= 0 || first.height <= 0) return { image: { ok: false }, close };
  return {
    image: {
      ok: true,
      width: first.width,
      height: first.height,
      async decode() {
        const { data } = await first.decode();
        return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      },
    },
    close,
  };
}
