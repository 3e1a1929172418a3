/**
 * A whole number of seconds as people say it: "1 hour", "10 minutes", "1 minute 30 seconds",
 * "0 seconds". For notices and live announcements, where "00:10:00" would be read out digit by digit.
 */
export function durationInWords(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const units: [number, string][] = [
    [Math.floor(seconds / 3600), 'hour'],
    [Math.floor((seconds % 3600) / 60), 'minute'],
    [seconds % 60, 'second'],
  ];
  const said = units.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return said.length > 0 ? said.join(' ') : '0 seconds';
}
