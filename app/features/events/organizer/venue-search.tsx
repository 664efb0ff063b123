import { MapPin } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/** What a picked place fills in on the event form. */
export type VenuePlace = {
  venue: string;
  address: string;
  town: string;
  postcode: string;
  latitude: string;
  longitude: string;
  placeId: string;
};

// The few parts of the Maps JavaScript API used here (no type package is installed for it).
type AddressComponent = { longText: string | null; types: string[] };
type Place = {
  id: string;
  displayName?: string | null;
  formattedAddress?: string | null;
  addressComponents?: AddressComponent[];
  location?: { lat(): number; lng(): number } | null;
  fetchFields(options: { fields: string[] }): Promise<unknown>;
};
type SelectEvent = Event & { placePrediction?: { toPlace(): Place } };
type PlacesLibrary = { PlaceAutocompleteElement: new (options: Record<string, unknown>) => HTMLElement };
type MapsGlobal = { maps: { importLibrary(name: "places"): Promise<PlacesLibrary> } };

const CALLBACK = "__pitlanePlacesReady";
let loading: Promise<PlacesLibrary> | undefined;

/**
 * Loads the Maps JavaScript API with the places library, once per page, only when this
 * component is shown (the event forms, when a key is configured). The script carries the
 * page's CSP nonce, which the API passes on to what it loads.
 */
function loadPlaces(apiKey: string) {
  loading ??= new Promise<PlacesLibrary>((resolve, reject) => {
    const scope = window as unknown as Record<string, unknown> & { google?: MapsGlobal };
    scope[CALLBACK] = () => {
      const google = scope.google;
      if (!google) return reject(new Error("Google Maps did not load"));
      google.maps.importLibrary("places").then(resolve, reject);
    };
    const script = document.createElement("script");
    const params = new URLSearchParams({ key: apiKey, libraries: "places", loading: "async", callback: CALLBACK });
    script.src = `https://maps.googleapis.com/maps/api/js?${params}`;
    script.async = true;
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("Google Maps could not be reached"));
    };
    document.head.append(script);
  });
  return loading;
}

function component(place: Place, ...types: string[]) {
  for (const type of types) {
    const found = place.addressComponents?.find((part) => part.types.includes(type));
    if (found?.longText) return found.longText;
  }
  return "";
}

function venueOf(place: Place): VenuePlace {
  const street = [component(place, "street_number"), component(place, "route")].filter(Boolean).join(" ");
  const firstLine = place.formattedAddress?.split(",")[0]?.trim() ?? "";
  return {
    venue: place.displayName ?? firstLine,
    address: street || (firstLine !== place.displayName ? firstLine : ""),
    town: component(place, "postal_town", "locality", "administrative_area_level_2"),
    postcode: component(place, "postal_code"),
    latitude: place.location ? place.location.lat().toFixed(6) : "",
    longitude: place.location ? place.location.lng().toFixed(6) : "",
    placeId: place.id,
  };
}

/**
 * Places autocomplete above the venue fields: picking a place fills them in, and they stay
 * editable. Without the script (blocked, offline) the plain fields still work.
 */
export function VenueSearch({ apiKey, onPlace }: { apiKey: string; onPlace(place: VenuePlace): void }) {
  const slot = useRef<HTMLDivElement>(null);
  const picked = useRef(onPlace);
  picked.current = onPlace;
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let element: HTMLElement | undefined;
    let active = true;
    loadPlaces(apiKey).then(
      ({ PlaceAutocompleteElement }) => {
        if (!active || !slot.current) return;
        element = new PlaceAutocompleteElement({});
        element.setAttribute("aria-labelledby", "venue-search-label");
        element.setAttribute("placeholder", "Search for the venue");
        element.addEventListener("gmp-select", (event) => {
          const place = (event as SelectEvent).placePrediction?.toPlace();
          if (!place) return;
          place
            .fetchFields({ fields: ["id", "displayName", "formattedAddress", "addressComponents", "location"] })
            .then(() => picked.current(venueOf(place)))
            .catch(() => setState("failed"));
        });
        slot.current.append(element);
        setState("ready");
      },
      () => active && setState("failed"),
    );
    return () => {
      active = false;
      element?.remove();
    };
  }, [apiKey]);

  return (
    <div className="space-y-1.5 rounded-xl border border-dashed border-line p-4">
      <p id="venue-search-label" className="flex items-center gap-2 font-semibold">
        <MapPin aria-hidden className="size-4 text-accent-ink" /> Find the venue on the map
      </p>
      <div ref={slot} className="min-h-12" />
      <p className="text-sm text-muted" role="status">
        {state === "loading"
          ? "Loading place search…"
          : state === "failed"
            ? "Place search is not available right now: type the venue's details below."
            : "Pick a place to fill in the fields below; you can still change them."}
      </p>
    </div>
  );
}
