/**
 * Google Places suggestions on the delivery address's first line (docs/shop.md "Shipping"). Only
 * the cart uses it, only when a Maps key is configured and merch is in the cart, and the script
 * is fetched only when the buyer first focuses the field. Suggestions come from the Places API's
 * AutocompleteSuggestion service and are offered through the field's own `<datalist>`, so the
 * field stays a plain, labelled input; picking one fills the address fields, which stay
 * editable. If the script cannot load, the plain form still works.
 */

export type AddressComponent = { longText: string | null; shortText: string | null; types: string[] };
type Place = { addressComponents?: AddressComponent[]; fetchFields(options: { fields: string[] }): Promise<unknown> };
type Suggestion = { placePrediction: { text: { text: string }; toPlace(): Place } | null };
type PlacesLibrary = {
  AutocompleteSuggestion: {
    fetchAutocompleteSuggestions(request: Record<string, unknown>): Promise<{ suggestions: Suggestion[] }>;
  };
  AutocompleteSessionToken: new () => object;
};
type MapsGlobal = { maps: { importLibrary(name: "places"): Promise<PlacesLibrary> } };

let loading: Promise<PlacesLibrary> | undefined;

function loadPlaces(scriptUrl: string) {
  loading ??= new Promise<PlacesLibrary>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = scriptUrl;
    script.async = true;
    // The page's nonce lets the script through the Content-Security-Policy.
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const google = (window as unknown as { google?: MapsGlobal }).google;
      if (!google) return reject(new Error("Google Maps did not load"));
      google.maps.importLibrary("places").then(resolve, reject);
    };
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("Google Maps could not be reached"));
    };
    document.head.append(script);
  });
  return loading;
}

function part(components: AddressComponent[], type: string, short = false) {
  const found = components.find((component) => component.types.includes(type));
  return (short ? found?.shortText : found?.longText) ?? "";
}

/** The address fields a picked place fills, by the form's field names. */
export function addressFromPlace(components: AddressComponent[]) {
  const street = [part(components, "street_number"), part(components, "route")].filter(Boolean).join(" ");
  return {
    line1: street || part(components, "premise"),
    town: part(components, "postal_town") || part(components, "locality"),
    region: part(components, "administrative_area_level_2") || part(components, "administrative_area_level_1"),
    postcode: part(components, "postal_code"),
    country: part(components, "country", true),
  };
}

function fill(components: AddressComponent[]) {
  for (const [field, value] of Object.entries(addressFromPlace(components))) {
    const element = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="address.${field}"]`);
    if (!element || !value) continue;
    // A country the shop does not deliver to is left for the buyer to choose.
    if (element instanceof HTMLSelectElement && ![...element.options].some((option) => option.value === value)) {
      continue;
    }
    element.value = value;
  }
}

const attached = new WeakSet<HTMLInputElement>();

/** Called on the first focus of the address's first line: loads Places and offers its suggestions. */
export function attachPlaces(input: HTMLInputElement, scriptUrl: string, countries: string[]) {
  if (attached.has(input)) return;
  attached.add(input);
  loadPlaces(scriptUrl).then(
    ({ AutocompleteSuggestion, AutocompleteSessionToken }) => {
      const list = document.createElement("datalist");
      list.id = `${input.id}-suggestions`;
      input.after(list);
      input.setAttribute("list", list.id);
      let session = new AutocompleteSessionToken();
      let offered = new Map<string, Suggestion["placePrediction"]>();
      let timer: ReturnType<typeof setTimeout> | undefined;
      input.addEventListener("input", () => {
        const picked = offered.get(input.value);
        if (picked) {
          const place = picked.toPlace();
          place
            .fetchFields({ fields: ["addressComponents"] })
            .then(() => fill(place.addressComponents ?? []))
            .catch(() => undefined);
          // A pick ends the billing session; the next typing starts another.
          session = new AutocompleteSessionToken();
          offered = new Map();
          list.replaceChildren();
          return;
        }
        clearTimeout(timer);
        const text = input.value.trim();
        if (text.length < 3) return;
        timer = setTimeout(() => {
          AutocompleteSuggestion.fetchAutocompleteSuggestions({
            input: text,
            sessionToken: session,
            includedRegionCodes: countries.map((code) => code.toLowerCase()),
          })
            .then(({ suggestions }) => {
              offered = new Map();
              for (const suggestion of suggestions) {
                if (suggestion.placePrediction)
                  offered.set(suggestion.placePrediction.text.text, suggestion.placePrediction);
              }
              list.replaceChildren(
                ...[...offered.keys()].map((label) =>
                  Object.assign(document.createElement("option"), { value: label }),
                ),
              );
            })
            .catch(() => undefined);
        }, 250);
      });
    },
    () => attached.delete(input),
  );
}
