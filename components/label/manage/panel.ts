// The classes the queue page's panels share.
export const panel = "rounded-lg border border-stone-200 bg-white p-4";
export const heading = "mb-2 text-sm font-semibold text-stone-800";
export const button =
  "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 disabled:opacity-50";
export const primary =
  "rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";
export const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
