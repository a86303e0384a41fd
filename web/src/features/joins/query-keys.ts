export const MY_JOINS_KEY = ['/api/joins'] as const;
