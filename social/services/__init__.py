"""Every write of the social rules is one of these modules' functions: blocks, chat, moderation,
cool-downs (STYLE.md § 4)."""
