import type { Metadata } from "next";
import { Providers } from "~/components/providers/trpc";
import "./globals.css";

export const metadata: Metadata = {
  title: "OmniForge Skills",
  description: "Author, govern, test and audit Agent Skills.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
