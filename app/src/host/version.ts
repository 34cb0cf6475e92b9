/** CacheProof's version, injected at build time from package.json (see scripts/build.mjs). */
declare const __CACHEPROOF_VERSION__: string | undefined;
export const APP_VERSION: string = typeof __CACHEPROOF_VERSION__ === 'string' ? __CACHEPROOF_VERSION__ : '0.0.0-dev';
