declare module '*.lua' {
  const text: string;
  export default text;
}
declare module '*.def' {
  const text: string;
  export default text;
}
