/** The text of axe-core's axe.min.js. */
export const AXE_SOURCE: string;
