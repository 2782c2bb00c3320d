// Vite's `?raw` imports (file contents as a string), used by the README test.
declare module '*?raw' {
  const text: string;
  export default text;
}
