import { type ChangeEvent, useEffect, useRef, useState } from "react";

/**
 * A preview of the picture chosen in a file input, before it is sent: an object address for an
 * `<img>`, or null. Only a picture the browser can read gets one (not HEIC, not a broken file);
 * the server checks the file by its content either way. When `saved` changes (the new picture was
 * stored and the page shows it), the preview goes and the picker starts empty again.
 */
export function usePicturePreview(saved: string | null) {
  const [preview, setPreview] = useState<string | null>(null);
  const chosen = useRef<File | undefined>(undefined);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is the effect of the saved picture changing
  useEffect(() => setPreview(null), [saved]);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    chosen.current = file;
    setPreview(null);
    if (file?.type.startsWith("image/")) {
      createImageBitmap(file).then(
        (bitmap) => {
          bitmap.close();
          if (chosen.current === file) setPreview(URL.createObjectURL(file));
        },
        () => {},
      );
    }
  };
  return { preview, onChange };
}
