// Python's `datetime.strftime` in the C locale, for the directives chat templates use
// (`strftime_now("%d %b %Y")` and the like), on a date given in UTC so renders are reproducible.

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function strftime(date: Date, format: string): string {
  return format.replace(/%(-?)([a-zA-Z%])/g, (whole, dash: string, code: string) => {
    // `%-d` (no padding) is glibc's, which CPython passes through on Linux.
    const p = (n: number, width = 2) => (dash ? String(n) : pad(n, width));
    const start = Date.UTC(date.getUTCFullYear(), 0, 1);
    switch (code) {
      case "a":
        return DAYS[date.getUTCDay()]!.slice(0, 3);
      case "A":
        return DAYS[date.getUTCDay()]!;
      case "b":
        return MONTHS[date.getUTCMonth()]!.slice(0, 3);
      case "B":
        return MONTHS[date.getUTCMonth()]!;
      case "d":
        return p(date.getUTCDate());
      case "m":
        return p(date.getUTCMonth() + 1);
      case "y":
        return p(date.getUTCFullYear() % 100);
      case "Y":
        return String(date.getUTCFullYear());
      case "H":
        return p(date.getUTCHours());
      case "I":
        return p(((date.getUTCHours() + 11) % 12) + 1);
      case "p":
        return date.getUTCHours() < 12 ? "AM" : "PM";
      case "M":
        return p(date.getUTCMinutes());
      case "S":
        return p(date.getUTCSeconds());
      case "j":
        return p(Math.floor((date.getTime() - start) / 86_400_000) + 1, 3);
      case "%":
        return "%";
      default:
        return whole;
    }
  });
}
