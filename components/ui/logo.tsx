export function Logo({ className = "h-7 w-7" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-brand-600" />
      <circle cx="9" cy="10" r="3" fill="white" />
      <circle cx="9" cy="22" r="3" fill="white" opacity="0.7" />
      <circle cx="23" cy="16" r="3.5" fill="white" />
      <path d="M11.5 11.2 20 15M11.5 20.8 20 17" stroke="white" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}
