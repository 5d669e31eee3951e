export { default } from "./runs/page";
