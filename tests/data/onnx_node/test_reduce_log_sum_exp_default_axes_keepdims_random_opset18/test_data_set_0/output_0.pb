BreducedJûüÜh+
#@