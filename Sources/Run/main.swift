print("Petty: not yet wired")
