export * from "./accounts";
export * from "./admin";
export * from "./events";
export * from "./site";
