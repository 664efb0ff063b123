import {
  CAR_PHOTO_MAX_BYTES,
  deleteCarPhotoFiles,
  reblurCarPhoto,
  storeCarPhoto,
} from "~/features/media/car-photos.server";
import { ImageWorkBusy } from "~/features/media/image-pool.server";
import type { CarPhotoMedia } from "./photos.server";

/** The site's media pipeline for car photos, as the garage's rules call it. */
export const carPhotoMedia: CarPhotoMedia = {
  maxBytes: CAR_PHOTO_MAX_BYTES,
  store: (storage, bytes, options) => storeCarPhoto(storage, bytes, options),
  // Old renditions are released by the garage, which knows whether another photo still shows them.
  async reblur(storage, files, blur, member) {
    try {
      return await reblurCarPhoto(storage, files, blur, { keepOld: true, member });
    } catch (error) {
      if (error instanceof ImageWorkBusy) return { ok: false, message: error.message, busy: true };
      throw error;
    }
  },
  deleteFiles: (storage, files, keep) => deleteCarPhotoFiles(storage, files, keep),
};
