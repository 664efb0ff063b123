import { useEffect } from "react";
import { useNavigation } from "react-router";
import { CHUNK_LOAD_TIMEOUT_MS, reloadAfterChunkFailure } from "./chunk-reload";

/** A navigation stuck for 120 s (the seed's chunk time-out) is retried as a full page load. */
export function NavigationWatchdog() {
  const navigation = useNavigation();
  const target = navigation.location ? navigation.location.pathname + navigation.location.search : null;
  useEffect(() => {
    if (navigation.state !== "loading" || !target) return;
    const timer = window.setTimeout(() => {
      reloadAfterChunkFailure(() => window.location.assign(target));
    }, CHUNK_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [navigation.state, target]);
  return null;
}
