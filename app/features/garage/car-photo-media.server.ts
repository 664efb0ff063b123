import {
  CAR_PHOTO_MAX_BYTES,
  CAR_PHOTOS_PER_CAR,
  deleteCarPhotoFiles,
  reblurCarPhoto,
  storeCarPhoto,
} from "~/features/media/car-photos.server";
import type { CarPhotoMedia } from "./photos.server";

/** The site's media pipeline for car photos, as the garage's rules call it. */
export const carPhotoMedia: CarPhotoMedia = {
  maxBytes: CAR_PHOTO_MAX_BYTES,
  perCar: CAR_PHOTOS_PER_CAR,
  store: (storage, bytes, options) => storeCarPhoto(storage, bytes, options),
  // Old renditions are released by the garage, which knows whether another photo still shows them.
  reblur: (storage, files, blur) => reblurCarPhoto(storage, files, blur, { keepOld: true }),
  deleteFiles: (storage, files, keep) => deleteCarPhotoFiles(storage, files, keep),
};
