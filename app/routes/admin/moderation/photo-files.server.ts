import { deleteCarPhotoFiles } from "~/features/media/car-photos.server";
import type { DeletePhotoFiles } from "~/features/moderation/decisions.server";
import { getLog } from "~/server/log.server";
import type { Storage } from "~/server/storage/storage.server";

/**
 * Deletes a removed photo's files from the media store. The rows are already gone by then: a file
 * the store fails to delete is logged and left behind, never brought back to a page.
 */
export function carPhotoFilesDeleter(storage: Storage): DeletePhotoFiles {
  return async (photo) => {
    try {
      await deleteCarPhotoFiles(storage, photo, photo.keep);
    } catch (error) {
      getLog().warn({ err: error, hash: photo.hash }, "could not delete a removed car photo's files");
    }
  };
}
