"""CUDA to CPU: kernel launches become parallel loop nests over blocks and threads (Polygeist, PPoPP'23)."""
