import { redirect } from "react-router";

// /indexBackup is an old address of the home page: old links keep working, and the permanent
// redirect moves search engines to the home page.
export function loader() {
  return redirect("/", 301);
}
