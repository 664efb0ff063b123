export * from "./accounts";
export * from "./admin";
export * from "./site";
