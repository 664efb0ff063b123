import { redirect } from "react-router";

// The seed's /indexBackup: old links keep working, search engines move to the home page.
export function loader() {
  return redirect("/", 301);
}
