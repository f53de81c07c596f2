export const scenarios = {}
