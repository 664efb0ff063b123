import type { Config } from "@react-router/dev/config";

// The calibration page: a bare React Router app built from the site's own packages.
export default { ssr: true } satisfies Config;
