export const CONSOLE_SCRIPT = "";
