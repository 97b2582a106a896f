/**
 * Exit status of a command whose job finished but left some of its work failed (charts not
 * extracted, proposals the reviser gave nothing usable for): not 0, so a script notices; not 1,
 * which is a command that could not do its job at all.
 */
export const EXIT_WITH_FAILURES = 2;
