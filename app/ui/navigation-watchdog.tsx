import { useEffect, useSyncExternalStore } from "react";
import { useLocation, useNavigation } from "react-router";
import {
  CHUNK_LOAD_TIMEOUT_MS,
  chunkFailurePath,
  reloadAfterChunkFailure,
  setPendingNavigation,
  subscribeChunkFailure,
} from "./chunk-reload";

/**
 * A navigation stuck for 120 s (the longest a page-script chunk may take to load; ADR 0003) is
 * retried as a full page load. It also tells the chunk-reload guard where a navigation is
 * heading, so a failure can be shown there.
 */
export function NavigationWatchdog() {
  const navigation = useNavigation();
  const target = navigation.location ? navigation.location.pathname + navigation.location.search : null;
  useEffect(() => {
    // Marks the document as interactive; end-to-end tests wait for it before using the page.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEffect(() => {
    setPendingNavigation(navigation.location?.pathname ?? null);
    if (navigation.state !== "loading" || !target) return;
    const timer = window.setTimeout(() => {
      reloadAfterChunkFailure(() => window.location.assign(target));
    }, CHUNK_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [navigation.state, navigation.location, target]);
  return null;
}

/** True while the visitor is on a page whose script failed to load and was not reloaded. */
export function useChunkFailure() {
  const failed = useSyncExternalStore(subscribeChunkFailure, chunkFailurePath, () => null);
  const { pathname } = useLocation();
  return failed !== null && failed === pathname;
}
