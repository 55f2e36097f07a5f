// The renderer answers placeholder-image URLs with the studio's own pictures; the rule and the
// drawing are shared with the studio's previews, which must show what the scorer saw.
export { placeholderSize, type ImageSize } from "../../lib/colbench/placeholder-url";
export { placeholderPng } from "../../lib/scoring/frontend/placeholder-png";
