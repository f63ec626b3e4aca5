class BaseModel:
    def initialize(self, opt):
        self.opt = opt
