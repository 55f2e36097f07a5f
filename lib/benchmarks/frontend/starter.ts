// What the agent seat's editor holds before the person types: an empty page with the benchmark's Tailwind.

export const STARTER_PAGE = `<html>
<head>
  <link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet">
</head>
<body>

</body>
</html>
`;
