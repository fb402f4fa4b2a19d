"""What goes over the wire to Discord: custom ids, the clicked message, requests through an
interaction's token, the channel permissions the bot needs, and every private part of discord.py
the bot relies on (``compat``)."""
